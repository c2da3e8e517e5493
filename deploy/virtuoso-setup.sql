-- What a Virtuoso server needs before the node uses it (run as dba: isql-vt 1111 dba dba deploy/virtuoso-setup.sql).
-- Running it again changes nothing. compose.yaml runs it once the server is up; the tests and the bench run it on
-- every server they start.

-- A quad index led by the graph. Virtuoso 7.2's default indexes (PSOG, POGS, SP, OP, GS) have no
-- G-then-S-P-O order, so a read of whole named graphs (GRAPH ?g { ?s ?p ?o } with ?g bound, or with a
-- constant graph) is planned as a scan of POGS testing every quad's graph, and some server instances
-- plan even a VALUES list of graphs that way: measured on three instances loaded with the same 10k
-- consignments, a first view's request cost 19-24 ms of the server's CPU without this index and
-- 4.5-4.75 ms with it, and the graphs of a view alone 76-87 ms on the worst instance against 2.75.
-- Its cost, measured at 10k consignments: a bulk load 5.5 s instead of 5.1, the database file 262 MB instead of
-- 260, Create at 16 connections 303 /s (285 in the run before it) (docs/external-store.md).
create procedure DB.DBA.DATASPACE_GRAPH_INDEX ()
{
  if (not exists (select 1 from DB.DBA.SYS_KEYS where KEY_NAME = 'RDF_QUAD_GSPO'))
    exec ('create column index RDF_QUAD_GSPO on DB.DBA.RDF_QUAD (G, S, P, O) partition (S int (0hexffff00))');
};
DB.DBA.DATASPACE_GRAPH_INDEX ();

-- The node sends every change as SPARQL Update over /sparql. This grants it to the anonymous account:
-- keep /sparql on a network only the node reaches, or give the node its own account instead
-- (docs/external-store.md, "What an operator configures on the server").
create procedure DB.DBA.DATASPACE_GRANT_UPDATE ()
{
  declare state, message varchar;
  -- exec with a state to fill does not stop on "already has this role" (a second run).
  exec ('GRANT SPARQL_UPDATE TO "SPARQL"', state, message);
  DB.DBA.RDF_DEFAULT_USER_PERMS_SET ('nobody', 7);
};
DB.DBA.DATASPACE_GRANT_UPDATE ();
