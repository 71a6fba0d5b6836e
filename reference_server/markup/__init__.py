"""Markup rendering: Markdown (CommonMark with GitHub's extensions) and the renderers registered by file
extension, sanitised HTML out; the API's ``/markup``, ``/markdown`` and ``/markdown/raw``."""
