"""Where and how a process reaches Temporal: a `temporalio.envconfig` profile over the Settings defaults.

The profile (TEMPORAL_PROFILE in TEMPORAL_CONFIG_FILE or the default config file, then the standard
TEMPORAL_* variables: address, namespace, API key, TLS certificate/key/CA, server name, gRPC metadata)
is what Temporal Cloud and the `temporal` CLI use, so an operator configures every process the same way.
Settings' own address, namespace and API key win when set (from the environment or .env), like the
variables win over the file; whatever neither sets is the Settings default.
"""

from typing import Final

from temporalio.envconfig import ClientConfigProfile, ClientConnectConfig

from adapters.settings import DEFAULT_NAMESPACE, ConfigurationError, Settings

DEFAULT_PROFILE: Final = "default"


def connect_config(settings: Settings) -> ClientConnectConfig:
    """The keyword arguments of `Client.connect` for this process's profile. A TEMPORAL_CONFIG_FILE that
    names no file, a profile it does not hold, or a file that does not parse is a ConfigurationError: envconfig
    would quietly fall back to localhost for the first."""
    source, name = settings.temporal_config_file, settings.temporal_profile or DEFAULT_PROFILE
    if source is not None and not source.is_file():
        raise ConfigurationError(
            f"TEMPORAL_CONFIG_FILE names no file ({source}); the profile {name!r} cannot be read from it"
        )
    try:
        profile = ClientConfigProfile.load(profile=settings.temporal_profile, config_source=source)
    except RuntimeError as refused:
        # The SDK's core raises its ConfigError (a RuntimeError). Its first line only: a parse error
        # quotes the file's line after it, and that line may hold an api_key.
        reason = (str(refused).strip().splitlines() or [type(refused).__name__])[0]
        raise ConfigurationError(
            f"the Temporal profile {name!r} cannot be loaded ({reason}): check TEMPORAL_PROFILE and "
            f"TEMPORAL_CONFIG_FILE ({source or 'the temporal CLI default'})"
        ) from None
    config = profile.to_client_connect_config()
    explicit = settings.model_fields_set
    if "temporal_address" in explicit or "target_host" not in config:
        config["target_host"] = settings.temporal_address
    if "temporal_namespace" in explicit or "namespace" not in config:
        config["namespace"] = settings.temporal_namespace
    if settings.temporal_api_key is not None:
        config["api_key"] = settings.temporal_api_key.get_secret_value()
        # As envconfig does for a profile's key: an API key is only ever sent over TLS.
        config.setdefault("tls", True)
    return config


def plaintext(address: str) -> ClientConnectConfig:
    """A local server without TLS (the embedded dev server, tests, benchmarks)."""
    return {"target_host": address, "namespace": DEFAULT_NAMESPACE}
