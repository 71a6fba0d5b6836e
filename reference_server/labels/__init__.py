"""Repository labels: list, create, read, edit and delete; a label template's labels on repository creation."""
