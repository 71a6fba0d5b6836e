"""Step libraries of the BDD suite: ``common`` holds the shared vocabulary, one module per area."""
