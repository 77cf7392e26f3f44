-- Sessions whose workflow start was never confirmed keep their workflow input in pending_workflow_input (0015's
-- crash-safe create). `checkout-admin session start-unstarted` finds them: normally none, so an index of only
-- those rows costs the writes nothing and spares the command a scan of every session.
create index sessions_unstarted on sessions (created_at) where pending_workflow_input is not null;
