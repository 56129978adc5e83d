# A saved snippet is imported by its title (or by its numeric id). Snippets are
# private: import with a provider configured as the snippet's owner.
import {
  to = zulip_saved_snippet.welcome
  id = "Welcome"
}
