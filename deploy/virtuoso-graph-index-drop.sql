-- Takes away the optional graph index of deploy/virtuoso-graph-index.sql, once the store is past a few
-- tens of thousands of consignments (run as dba: isql-vt 1111 dba dba deploy/virtuoso-graph-index-drop.sql;
-- running it again changes nothing). The server may be running and taking writes.
--
-- The checkpoint right after the DDL is what makes this safe: a server killed between a `drop index` and
-- its next checkpoint replays the drop at start and answers every SPARQL request with SQ156 ("sqlo
-- table has no index") until a person checkpoints and restarts it.
create procedure DB.DBA.DATASPACE_GRAPH_INDEX_DROP ()
{
  if (exists (select 1 from DB.DBA.SYS_KEYS where KEY_NAME = 'RDF_QUAD_GSPO'))
    exec ('drop index RDF_QUAD_GSPO DB.DBA.RDF_QUAD');
};
DB.DBA.DATASPACE_GRAPH_INDEX_DROP ();
checkpoint;
