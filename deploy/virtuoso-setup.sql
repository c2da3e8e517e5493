-- What a Virtuoso server needs before the node uses it (run as dba: isql-vt 1111 dba dba deploy/virtuoso-setup.sql).
-- Running it again changes nothing. compose.yaml runs it once the server is up; the tests and the bench run it on
-- every server they start. For a store of tens of thousands of consignments, see also deploy/virtuoso-graph-index.sql.

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
