"""Organizations: accounts of type organization, with owners and members."""
