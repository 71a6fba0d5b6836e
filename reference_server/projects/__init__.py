"""Project boards at repository, organization and user scope: boards, columns and the issues on them."""
