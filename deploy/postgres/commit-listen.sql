-- Wakes this connection at each commit the writer records (commit-append.sql notifies).
LISTEN dataspace_commit
