variable "issue_tracker" {
  description = "Base URL of the issue tracker that ZT-1234 links to."
  type        = string
}

variable "playground" {
  description = "Base URL of the code playground."
  type        = string
}

variable "channels" {
  description = "Channels every environment has: name => description."
  type        = map(string)
}
