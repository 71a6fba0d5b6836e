"""Repository topics and the instance-wide topic search (Gitea's ``/repos/{o}/{r}/topics`` and ``/topics/search``)."""
