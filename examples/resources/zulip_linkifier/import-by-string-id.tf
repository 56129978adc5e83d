# A linkifier is imported by its pattern (or by its numeric id).
import {
  to = zulip_linkifier.issues
  id = "#(?P<id>[0-9]+)"
}
