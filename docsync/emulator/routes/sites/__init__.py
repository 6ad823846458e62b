"""Sites: their own fields, their structure (sections, section groups, site spaces, external
links) and their visitor attributes schema."""
