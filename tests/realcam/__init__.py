"""The project's realistic test camera: a Spanish deck drawn in code, the kit's printed
stickers, and a physically modelled Pi camera (see docs/vision.md, "The realistic camera")."""
