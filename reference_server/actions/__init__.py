"""The actions family: workflows, runs, jobs, tasks, runners, registration tokens and the runner protocol."""
