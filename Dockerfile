# The worker image: this project and its pinned wheels; nothing is downloaded when a container starts.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
RUN useradd --create-home --uid 10001 agent
WORKDIR /app
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY activities ./activities
COPY workflows ./workflows
COPY adapters ./adapters
COPY migrations ./migrations
COPY evals ./evals
COPY memory_client ./memory_client
RUN pip install --no-cache-dir .
# Part of the worker's build id (Worker Versioning): `docker build --build-arg BUILD_COMMIT=$(git rev-parse HEAD)`.
ARG BUILD_COMMIT=""
ENV BUILD_COMMIT=${BUILD_COMMIT}
USER agent
ENTRYPOINT ["agent"]
CMD ["worker"]
