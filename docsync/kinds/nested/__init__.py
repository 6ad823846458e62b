"""The framework of what a site holds: a kind nested in its structure (a site's sections,
section groups, external links, site spaces), its classes, the state its lists are planned in,
what its actions carry, the order of its levels and its structure's answers; and a part of a
site or of one of its children (`parts.py`: `SitePart`, `ChildPart`, their requests under the
site's path). A framework package: it defines no kind and imports no family."""
