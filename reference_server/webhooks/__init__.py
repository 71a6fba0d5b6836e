"""Repository webhooks: their management over REST and the delivery of CI events (workflow_run, workflow_job)."""
