"""The framework of a kind nested in its holder's structure (a site's sections, section groups,
external links, site spaces): its classes, the state its lists are planned in, what its actions
carry, the order of its levels and its structure's answers. A framework package: it defines no
kind and imports no family."""
