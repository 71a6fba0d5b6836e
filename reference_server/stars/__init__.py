"""Stars and watches of repositories: who starred or watches what, and the lists and counts built on them."""
