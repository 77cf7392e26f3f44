-- The workflow input of a session whose workflow the API has not yet seen start. The API commits the session
-- row first and starts its workflow afterwards, outside any transaction; a crash in between leaves this set,
-- and the merchant's retry with the same transaction_id starts the workflow from it. Null once the start is
-- confirmed, and for sessions created before this column, whose workflows were started before their rows.
alter table sessions add column pending_workflow_input jsonb;
