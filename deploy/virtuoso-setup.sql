-- What a Virtuoso server needs before the node uses it (run as dba: isql-vt 1111 dba dba deploy/virtuoso-setup.sql).
-- Running it again changes nothing. compose.yaml runs it once the server is up; the tests and the bench run it on
-- every server they start. Then give the node its own account: deploy/virtuoso-node-account.sql. For a store of
-- tens of thousands of consignments, see also deploy/virtuoso-graph-index.sql.

-- Anonymous requests (the SQL user "SPARQL" behind /sparql, and "nobody" for graph rights) may neither
-- change nor read the quad store: the node's graphs hold every organisation's data, and the node's own
-- policies decide who reads what. The node writes and reads with its own account, over /sparql-auth.
create procedure DB.DBA.DATASPACE_NO_ANONYMOUS ()
{
  declare state, message varchar;
  -- exec with a state to fill does not stop on "does not have this role" (a second run).
  exec ('REVOKE SPARQL_UPDATE FROM "SPARQL"', state, message);
  DB.DBA.RDF_DEFAULT_USER_PERMS_SET ('nobody', 0);
};
DB.DBA.DATASPACE_NO_ANONYMOUS ();
-- Rights live in system tables: checkpointed at once, so a crash before the next checkpoint replays nothing.
checkpoint;
