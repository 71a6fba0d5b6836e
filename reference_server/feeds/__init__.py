"""Activity feeds: what users did (repositories created and renamed, pushes, issues, pulls, comments),
recorded from the event bus and listed per user, repository, organization and team."""
