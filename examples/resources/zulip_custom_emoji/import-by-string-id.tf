import {
  to = zulip_custom_emoji.green_tick
  id = "green_tick"
}
