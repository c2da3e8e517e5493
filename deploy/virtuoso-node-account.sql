-- The node's own Virtuoso account: SPARQL read and update, no DBA role.
-- Run as dba after deploy/virtuoso-setup.sql, naming the account and its password:
--
--   isql-vt 1111 dba <dba-password> deploy/virtuoso-node-account.sql 'U{account}=dataspace' 'U{password}=<password>'
--
-- and give the node the same: DATASPACE_SPARQL_QUERY_URL and DATASPACE_SPARQL_UPDATE_URL
-- http://127.0.0.1:8890/sparql-auth, DATASPACE_SPARQL_USER dataspace, DATASPACE_SPARQL_PASSWORD <password>
-- (the node answers /sparql-auth's Digest challenge). Running it again sets the password and the rights
-- again. A password holds no quote and no colon.
--
-- Which graphs: the node's IRIs start with urn:dataspace: (its own graphs) and urn:uuid: (the data
-- graphs it makes as data arrives), so they cannot be listed here, and Virtuoso 7.2 refuses per-graph
-- rights narrower than a user's default ("default permissions ... are broader than new permissions on
-- specific graph"). Graph-level security draws the line with private graphs instead: every graph on the
-- server that is not the node's is put in the group virtrdf:PrivateGraphs, where the account (and
-- anonymous requests) have no rights, read or write; on the others (world graphs, the node's among
-- them, new ones included) the account reads and writes (3: 1 read + 2 write; 4 would add fetching
-- remote data, which the node never needs). A graph loaded on the server later by anyone else is world
-- until it is made private too:
--
--   DB.DBA.RDF_GRAPH_GROUP_INS ('http://www.openlinksw.com/schemas/virtrdf#PrivateGraphs', '<graph>');
--
-- (running this script again does that for every graph then on the server that is not the node's).
-- The account has no DBA role; it may open an SQL session (Virtuoso wants that of a SPARQL user), so
-- keep port 1111 on 127.0.0.1 (deploy/virtuoso.ini).
create procedure DB.DBA.DATASPACE_NODE_ACCOUNT (in account varchar, in pwd varchar)
{
  declare state, message varchar;
  if (account is null or account in ('', 'NULL') or pwd is null or pwd = 'NULL' or length (pwd) < 12)
    signal ('22023', 'name the account and a password of 12 characters or more: ''U{account}=...'' ''U{password}=...''');
  if (exists (select 1 from DB.DBA.SYS_USERS where U_NAME = account))
    DB.DBA.USER_SET_OPTION (account, 'PASSWORD', pwd);
  else
    DB.DBA.USER_CREATE (account, pwd, vector ('SQL_ENABLE', 1));
  exec (sprintf ('GRANT SPARQL_SELECT TO "%I"', account), state, message);
  exec (sprintf ('GRANT SPARQL_UPDATE TO "%I"', account), state, message);
  -- Anonymous may have no more than the account (Virtuoso refuses that): setup.sql gave it nothing.
  DB.DBA.RDF_DEFAULT_USER_PERMS_SET ('nobody', 0);
  DB.DBA.RDF_DEFAULT_USER_PERMS_SET (account, 3);
  -- Private graphs: no rights for anonymous requests or the account.
  if (not exists (select 1 from DB.DBA.RDF_GRAPH_GROUP where RGG_IRI = 'http://www.openlinksw.com/schemas/virtrdf#PrivateGraphs'))
    DB.DBA.RDF_GRAPH_GROUP_CREATE ('http://www.openlinksw.com/schemas/virtrdf#PrivateGraphs', 1);
  DB.DBA.RDF_DEFAULT_USER_PERMS_SET ('nobody', 0, 1);
  DB.DBA.RDF_DEFAULT_USER_PERMS_SET (account, 0, 1);
  -- Every graph on the server now that is not the node's becomes private.
  for (select distinct id_to_iri (G) as graph from DB.DBA.RDF_QUAD) do
    {
      if (not (graph like 'urn:dataspace:%' or graph like 'urn:uuid:%'))
        DB.DBA.RDF_GRAPH_GROUP_INS ('http://www.openlinksw.com/schemas/virtrdf#PrivateGraphs', graph);
    }
};
DB.DBA.DATASPACE_NODE_ACCOUNT ('$U{account}', '$U{password}');
checkpoint;
