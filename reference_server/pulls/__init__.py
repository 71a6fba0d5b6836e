"""Pull requests from branches: their commits and changed files, the branch update, reviews, review
comments and replies."""
