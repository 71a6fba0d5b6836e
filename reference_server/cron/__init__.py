"""Cron tasks an administrator lists and runs (``/admin/cron``)."""
