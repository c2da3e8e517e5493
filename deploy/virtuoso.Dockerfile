# Virtuoso Open Source 7.2 from Debian, the build the node's tests run against (virtuoso-opensource),
# configured by deploy/virtuoso.ini (mounted by compose.yaml at /etc/dataspace/virtuoso.ini).
FROM debian:bookworm-slim
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends virtuoso-opensource \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /database
WORKDIR /database
VOLUME /database
EXPOSE 8890 1111
CMD ["virtuoso-t", "+foreground", "+configfile", "/etc/dataspace/virtuoso.ini"]
