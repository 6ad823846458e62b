"""The organization itself: its settings, members, invite links, teams and SAML providers."""
