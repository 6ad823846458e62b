"""Sites: their own fields, their structure (sections, site spaces, section groups, external
links) planned by one driver, and the parts written with a site."""
