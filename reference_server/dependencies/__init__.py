"""Issue dependencies and blocks: "A depends on B" is the same link as "B blocks A", across repositories."""
