# A saved snippet is imported by its title or its numeric id (GET /api/v1/saved_snippets).
# Snippets are private: import with a provider configured as the snippet's owner.
terraform import zulip_saved_snippet.welcome Welcome
