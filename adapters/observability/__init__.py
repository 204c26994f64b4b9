"""What operators watch: content-free metrics, traces and health endpoints of the worker and the API."""
