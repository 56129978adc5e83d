# An event queue that lives only while Terraform runs: a script started by
# the run can long-poll GET /api/v1/events with it to see the linkifier and
# allowed-domain changes as the server applies them. Terraform deletes the
# queue when it is done; nothing of it is stored in the plan or the state.
ephemeral "zulip_event_queue" "watch" {
  event_types       = ["realm_linkifiers", "realm_domains"]
  fetch_event_types = [] # the initial state is not needed
}

resource "terraform_data" "watch" {
  provisioner "local-exec" {
    # Replace with your watcher, e.g. a script that polls
    # GET /api/v1/events?queue_id=$QUEUE_ID&last_event_id=$LAST_EVENT_ID
    command = "echo \"Zulip $ZULIP_VERSION: watching queue $QUEUE_ID from event $LAST_EVENT_ID\""
    environment = {
      QUEUE_ID      = ephemeral.zulip_event_queue.watch.queue_id
      LAST_EVENT_ID = ephemeral.zulip_event_queue.watch.last_event_id
      ZULIP_VERSION = ephemeral.zulip_event_queue.watch.zulip_version
    }
  }
}
