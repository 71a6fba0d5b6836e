"""Reference implementation of the forge specification: a Flask app built by ``reference_server.app.create_app``.

The package itself imports nothing: the pre-receive hook program (a process Git starts for every push)
imports a few of its modules and must not pay for the whole app.
"""
