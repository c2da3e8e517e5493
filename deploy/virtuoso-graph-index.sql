-- Optional: a quad index led by the graph, for a store of tens of thousands of consignments rather than
-- hundreds of thousands (run as dba: isql-vt 1111 dba dba deploy/virtuoso-graph-index.sql; running it
-- again changes nothing; deploy/virtuoso-graph-index-drop.sql takes it away). docs/external-store.md has
-- the measurements.
--
-- The checkpoint at the end is part of the change: Virtuoso 7.2 writes index DDL to its transaction log,
-- and a server killed before its next checkpoint replays it at start into a schema whose RDF_QUAD has
-- no usable index, so every SPARQL request then fails with SQ156 ("sqlo table has no index") until a
-- person checkpoints and restarts it. After a checkpoint there is nothing left to replay.
--
-- Why: Virtuoso 7.2's default indexes (PSOG, POGS, SP, OP, GS) have no G-then-S-P-O order, and on a small
-- store it plans a read of whole named graphs (a view's data graphs) as a scan of POGS testing every
-- quad's graph. At 10k consignments a first view then cost 19-24 ms of the server's CPU on every
-- instance tried (76-87 ms for the graphs alone on the worst), and 4.5-4.75 ms with this index.
-- Why not always: Virtuoso samples the indexes each time it plans a new text, and every first view's
-- text is new (it names the consignment). At 100k consignments the server plans those reads as lookups
-- without the index, and the index only adds planning: 8.5-10 ms a first view with it, 5.2-5.5 ms
-- without, on two instances of three (the third 5.3-6.8 ms with it).
create procedure DB.DBA.DATASPACE_GRAPH_INDEX ()
{
  if (not exists (select 1 from DB.DBA.SYS_KEYS where KEY_NAME = 'RDF_QUAD_GSPO'))
    exec ('create column index RDF_QUAD_GSPO on DB.DBA.RDF_QUAD (G, S, P, O) partition (S int (0hexffff00))');
};
DB.DBA.DATASPACE_GRAPH_INDEX ();
checkpoint;
