"""Notifications, issue subscriptions and stopwatches: what a user follows and is told about."""
