"""The gazetteer: product, place and language names by the category of thing they name.

Data for ``value_categories`` (slot drift: two things of one category vouch for one
slot) and ``named_things`` (recall: a question naming a thing of a value's kind). A name
in several categories is listed in each. Names that are also everyday words ("beam",
"rest") are listed in ``named_things.EVERYDAY_NAMES`` too, so a question names them only
when capitalized. Pure: a table.
"""

from __future__ import annotations

# One entry per category: the names (lowercase) that are things of that category. A
# name in several categories (Cloudflare: a CDN and a DNS host) is listed in each; two
# values share a category when any of theirs meet.
GAZETTEER: dict[str, tuple[str, ...]] = {
    "ci": (
        "jenkins", "circleci", "circle ci", "github actions", "gitlab ci", "gitlab ci/cd",
        "buildkite", "travis", "travis ci", "drone", "drone ci", "teamcity", "bamboo",
        "azure pipelines", "azure devops", "bitrise", "codemagic", "semaphore", "woodpecker",
        "concourse", "argo workflows", "tekton", "aws codebuild", "codebuild", "google cloud build",
        "cloud build", "appveyor", "harness", "earthly", "dagger",
    ),
    "cloud": (
        "aws", "amazon web services", "gcp", "google cloud", "google cloud platform", "azure",
        "microsoft azure", "digitalocean", "digital ocean", "hetzner", "linode", "akamai cloud",
        "ovh", "ovhcloud", "scaleway", "oracle cloud", "ibm cloud", "vultr", "fly.io", "fly",
        "render", "heroku", "vercel", "netlify", "railway", "cloudflare", "github pages",
        "gitlab pages", "firebase hosting", "aws amplify", "on-prem", "on-premises", "bare metal",
    ),
    "database": (
        "postgres", "postgresql", "mysql", "mariadb", "sqlite", "mongodb", "mongo", "dynamodb",
        "cassandra", "scylladb", "cockroachdb", "oracle", "sql server", "mssql", "aurora",
        "amazon rds", "rds", "cloud sql", "spanner", "firestore", "supabase", "planetscale",
        "neon", "timescaledb", "clickhouse", "duckdb", "neo4j", "falkordb", "couchdb",
        "couchbase", "influxdb",
    ),
    # Warehouses and search engines hold data too, beside the database in another role
    # ("database" PostgreSQL, "data_warehouse" Snowflake, "search" OpenSearch): each is its
    # own category, so values of the two never vouch for one slot.
    "data_warehouse": (
        "snowflake", "bigquery", "redshift", "amazon redshift", "azure synapse", "synapse",
        "firebolt",
    ),
    "cache": (
        "redis", "memcached", "valkey", "dragonfly", "varnish", "elasticache", "keydb",
        "hazelcast",
    ),
    "queue": (
        "kafka", "apache kafka", "rabbitmq", "amazon sqs", "sqs", "sns", "nats", "pulsar",
        "kinesis", "google pub/sub", "pub/sub", "pubsub", "redis streams", "activemq",
        "zeromq", "celery", "sidekiq", "temporal", "redpanda", "eventbridge", "azure service bus",
    ),
    "monitoring": (
        "datadog", "new relic", "newrelic", "grafana", "prometheus", "honeycomb", "dynatrace",
        "appdynamics", "elastic apm", "splunk", "signoz", "lightstep", "chronosphere",
        "grafana cloud", "grafana alerting", "alertmanager", "prometheus alertmanager",
        "cloudwatch", "amazon cloudwatch", "stackdriver", "zabbix", "nagios",
        "sumo logic", "logz.io", "papertrail", "loki", "kibana", "sentry",
        "cloud monitoring", "google cloud monitoring", "cloud logging", "google cloud logging",
        "azure monitor", "application insights", "victoriametrics", "thanos", "cortex",
        "mimir", "grafana mimir", "graphite", "statsd", "jaeger", "zipkin", "grafana tempo",
        "uptrace", "axiom", "coralogix", "mezmo", "logdna", "instana", "fluentd", "fluent bit",
        "logstash", "graylog", "loggly", "logtail", "elk", "elk stack", "elastic stack",
        "opentelemetry collector", "scout apm",
    ),
    "errors": ("sentry", "rollbar", "bugsnag", "honeybadger", "raygun", "airbrake", "crashlytics"),
    "chat": (
        "slack", "microsoft teams", "ms teams", "teams", "discord", "mattermost", "zulip",
        "google chat", "rocket.chat", "element", "matrix", "telegram", "whatsapp", "signal",
    ),
    "tracker": (
        "jira", "linear", "github issues", "gitlab issues", "asana", "trello", "shortcut",
        "clickup", "youtrack", "monday", "monday.com", "pivotal tracker", "basecamp", "notion",
        "azure boards", "redmine", "bugzilla",
    ),
    "editor": (
        "vs code", "vscode", "visual studio code", "visual studio", "vim", "neovim", "nvim",
        "emacs", "cursor", "intellij", "intellij idea", "pycharm", "webstorm", "goland",
        "rubymine", "clion", "rider", "sublime text", "sublime", "zed", "xcode",
        "android studio", "eclipse", "helix", "nano", "atom", "windsurf", "fleet",
    ),
    "programming_language": (
        "python", "go", "golang", "rust", "java", "kotlin", "typescript", "javascript", "ruby",
        "php", "c#", "c++", "c", "swift", "elixir", "erlang", "scala", "clojure", "haskell",
        "ocaml", "dart", "lua", "perl", "r", "julia", "zig", "nim", "f#", "objective-c",
    ),
    "human_language": (
        "english", "spanish", "french", "german", "portuguese", "italian", "dutch", "polish",
        "swedish", "norwegian", "danish", "finnish", "russian", "ukrainian", "turkish",
        "arabic", "hebrew", "hindi", "tamil", "telugu", "bengali", "marathi", "urdu",
        "mandarin", "chinese", "cantonese", "japanese", "korean", "vietnamese", "thai",
        "indonesian", "malay", "greek", "czech", "hungarian", "romanian", "swahili", "persian",
    ),
    "os": (
        "ubuntu", "debian", "macos", "mac os", "os x", "windows", "windows 11", "windows 10",
        "fedora", "arch", "arch linux", "alpine", "nixos", "centos", "rhel", "red hat",
        "rocky linux", "amazon linux", "linux mint", "linux", "pop!_os", "opensuse", "freebsd",
        "wsl",
    ),
    "package_manager": (
        "npm", "yarn", "pnpm", "bun", "pip", "pipenv", "poetry", "uv", "conda", "mamba",
        "cargo", "bundler", "composer", "maven", "gradle", "go modules", "nuget", "homebrew",
        "apt", "pdm", "hatch", "rye",
    ),
    "test_framework": (
        "pytest", "unittest", "nose", "jest", "vitest", "mocha", "jasmine", "ava", "junit",
        "testng", "rspec", "minitest", "go test", "testify", "xunit", "nunit", "phpunit",
        "karma", "xctest", "hypothesis",
    ),
    # Tools that drive a running app's UI from outside; a project keeps one beside its unit
    # test framework (Vitest for units, Playwright in the browser), rarely instead of it.
    "ui_test_framework": (
        "cypress", "playwright", "selenium", "puppeteer", "webdriverio", "testcafe",
        "nightwatch", "detox", "espresso", "appium", "xcuitest",
    ),
    # Helpers a test framework runs, beside it rather than instead of it.
    "test_helper": (
        "react testing library", "testing library", "@testing-library/react", "enzyme",
        "vue test utils", "msw", "mock service worker", "testcontainers", "factory_boy",
        "factory bot", "faker", "nock", "sinon", "supertest", "freezegun", "pytest-mock",
        "mockito", "mockk", "wiremock", "vcr.py", "responses",
    ),
    "formatter": (
        "black", "ruff format", "prettier", "gofmt", "goimports", "rustfmt", "yapf",
        "autopep8", "clang-format", "biome", "dprint", "ktlint", "swiftformat", "isort",
    ),
    "linter": (
        "eslint", "ruff", "flake8", "pylint", "golangci-lint", "clippy", "rubocop",
        "stylelint", "swiftlint", "shellcheck", "hadolint", "oxlint", "tflint", "staticcheck",
    ),
    "build_tool": (
        "bazel", "make", "gnu make", "cmake", "gradle", "maven", "webpack", "vite", "esbuild",
        "rollup", "parcel", "turbopack", "turborepo", "nx", "pants", "buck", "buck2", "ninja",
        "meson", "sbt", "rake", "just", "task", "earthly", "scons", "setuptools", "hatchling",
    ),
    "registry": (
        "docker hub", "dockerhub", "ghcr", "github container registry", "ecr", "amazon ecr",
        "gcr", "google container registry", "artifact registry", "quay", "quay.io",
        "artifactory", "jfrog artifactory", "harbor", "nexus", "azure container registry", "acr",
        "gitlab container registry", "npmjs", "pypi",
    ),
    # Provisioning cloud resources, beside configuring the machines once they exist: a
    # team often keeps both (Terraform for the VPC, Ansible for the hosts).
    "iac": (
        "terraform", "opentofu", "pulumi", "cloudformation", "aws cdk", "cdk", "crossplane",
        "bicep",
    ),
    "config_management": ("ansible", "chef", "puppet", "saltstack", "salt"),
    "orchestrator": (
        "kubernetes", "k8s", "nomad", "ecs", "amazon ecs", "eks", "gke", "aks", "docker swarm",
        "openshift", "k3s", "fargate", "cloud run", "docker compose",
    ),
    # The service an application sends its mail through, beside the mailboxes people read:
    # a team keeps both (SendGrid for receipts, Google Workspace for its inboxes).
    "email": (
        "mailgun", "sendgrid", "postmark", "amazon ses", "ses", "mailchimp", "mandrill",
        "sparkpost", "resend", "brevo", "sendinblue", "mailjet",
    ),
    "mailbox": (
        "gmail", "google workspace", "g suite", "microsoft 365", "office 365", "outlook",
        "fastmail", "proton mail", "protonmail", "zoho mail", "icloud mail",
    ),
    "payments": (
        "stripe", "braintree", "adyen", "paypal", "square", "paddle", "mollie", "razorpay",
        "checkout.com", "worldpay", "lemon squeezy",
    ),
    # Plans, invoices and renewals, run beside a payment processor that takes the money.
    "subscription_billing": (
        "chargebee", "recurly", "zuora", "stripe billing", "lago", "orb", "chargify", "maxio",
    ),
    "auth": (
        "auth0", "okta", "keycloak", "cognito", "amazon cognito", "firebase auth", "clerk",
        "supertokens", "ory", "fusionauth", "azure ad", "entra id", "google identity",
        "supabase auth",
        "onelogin", "ping identity", "workos", "dex", "authelia",
    ),
    # Libraries in the application's own code that sign users in, beside the identity
    # provider they may talk to (NextAuth in the app, Okta as the company's directory).
    "auth_library": (
        "nextauth", "next-auth", "nextauth.js", "auth.js", "passport", "passport.js",
        "devise", "omniauth", "django-allauth", "allauth", "lucia", "better auth",
        "better-auth", "spring security", "flask-login", "authlib", "iron-session",
    ),
    "cdn": (
        "fastly", "cloudflare", "akamai", "cloudfront", "amazon cloudfront", "bunny", "bunnycdn",
        "cloud cdn", "azure cdn", "keycdn", "stackpath", "edgio", "limelight",
    ),
    "dns": (
        "cloudflare", "route 53", "route53", "amazon route 53", "cloud dns", "dnsimple", "ns1",
        "azure dns", "powerdns", "bind",
    ),
    "registrar": (
        "namecheap", "godaddy", "google domains", "squarespace domains", "gandi", "hover",
        "porkbun", "name.com", "dynadot", "cloudflare registrar",
    ),
    "vcs_host": (
        "github", "gitlab", "bitbucket", "gitea", "forgejo", "codeberg", "sourcehut",
        "azure repos", "github enterprise",
    ),
    "video_call": (
        "zoom", "google meet", "meet", "microsoft teams", "teams", "webex", "whereby", "around",
        "gather", "jitsi", "skype", "tuple",
    ),
    "paging": (
        "pagerduty", "opsgenie", "victorops", "splunk on-call", "incident.io", "firehydrant",
        "rootly", "grafana oncall", "betterstack", "better uptime",
    ),
    "docs_generator": (
        "docusaurus", "jekyll", "hugo", "mkdocs", "sphinx", "gatsby", "vitepress", "vuepress",
        "astro", "starlight", "mintlify", "gitbook", "readme.io", "nextra", "eleventy", "11ty",
    ),
    "web_framework": (
        "django", "flask", "fastapi", "rails", "ruby on rails", "express", "koa", "nestjs",
        "spring", "spring boot", "laravel", "symfony", "phoenix", "gin", "echo", "fiber",
        "actix", "axum", "rocket", "next.js", "nextjs", "nuxt", "remix", "sveltekit", "react",
        "vue", "angular", "svelte", "solid", "ember", "htmx", "asp.net", "quarkus", "micronaut",
        "actix-web", "actix web", "chi", "gorilla mux", "gorilla/mux", "httprouter",
        "tide", "poem", "salvo", "hapi", "fastify", "hono", "elysia", "adonisjs", "sails",
        "starlette", "litestar", "sanic", "quart", "aiohttp", "tornado", "bottle", "pyramid",
        "falcon", "django rest framework", "drf", "sinatra", "hanami", "grape", "beego",
        "iris", "vapor", "ktor", "javalin", "dropwizard", "vert.x", "play framework", "blazor",
        "asp.net core",
    ),
    "css": (
        "tailwind", "tailwind css", "tailwindcss", "bootstrap", "bulma", "foundation", "mui",
        "material ui", "chakra ui", "styled-components", "emotion", "sass", "less",
        "css modules", "vanilla extract", "unocss", "pico css",
    ),
    "secrets": (
        "vault", "hashicorp vault", "aws secrets manager", "secrets manager",
        "gcp secret manager", "google secret manager", "azure key vault", "doppler",
        "1password", "bitwarden", "infisical", "sops", "lastpass", "keepass",
    ),
    "analytics": (
        "amplitude", "mixpanel", "segment", "posthog", "google analytics", "plausible",
        "heap", "fathom", "matomo", "pendo", "fullstory", "hotjar", "rudderstack",
    ),
    "feature_flags": (
        "launchdarkly", "unleash", "flagsmith", "split", "split.io", "growthbook", "configcat",
        "statsig", "optimizely", "flipt",
    ),
    "shell": ("bash", "zsh", "fish", "nushell", "powershell", "sh", "dash", "ksh", "tcsh", "xonsh"),
    "terminal": (
        "iterm2", "iterm", "alacritty", "kitty", "wezterm", "warp", "ghostty", "terminal.app",
        "windows terminal", "gnome terminal", "konsole", "tmux", "hyper", "foot",
    ),
    "browser": (
        "chrome", "google chrome", "firefox", "safari", "edge", "microsoft edge", "brave", "arc",
        "opera", "vivaldi", "chromium",
    ),
    "search": (
        "elasticsearch", "opensearch", "algolia", "meilisearch", "typesense", "solr", "vespa",
        "apache solr", "sphinx search", "pinecone", "weaviate", "qdrant", "milvus", "pgvector",
    ),
    "storage": (
        "s3", "amazon s3", "aws s3", "gcs", "google cloud storage", "azure blob storage",
        "backblaze b2", "b2", "wasabi", "minio", "cloudflare r2", "r2", "amazon s3 glacier",
        "glacier", "dropbox", "google drive", "box", "nfs", "efs",
    ),
    "design": ("figma", "sketch", "adobe xd", "penpot", "invision", "zeplin", "framer", "canva"),
    "scheduler": (
        "cron", "airflow", "apache airflow", "dagster", "prefect", "luigi",
        "argo", "kubernetes cronjobs", "cloud scheduler", "eventbridge scheduler", "rundeck",
    ),
    # Durable execution of application code, beside the data pipelines' orchestrator.
    "workflow_engine": (
        "temporal", "cadence", "netflix conductor", "conductor", "aws step functions",
        "step functions", "camunda", "zeebe", "inngest", "restate",
    ),
    "web_server": (
        "nginx", "apache", "apache httpd", "caddy", "traefik", "envoy", "haproxy", "iis",
        "gunicorn", "uvicorn", "puma", "unicorn", "tomcat", "jetty", "kong",
    ),
    "notes": (
        "obsidian", "logseq", "evernote", "bear", "roam", "roam research", "apple notes",
        "onenote", "microsoft onenote", "joplin", "standard notes", "simplenote", "tana",
        "anytype", "heptabase", "capacities", "dendron", "zettlr", "notion", "google keep",
        "notability", "goodnotes", "upnote", "trilium",
    ),
    "wiki": (
        "confluence", "notion", "google docs", "slab", "outline", "bookstack", "dokuwiki",
        "mediawiki", "coda", "quip", "sharepoint", "nuclino", "tettra", "guru", "slite",
        "document360", "archbee", "github wiki", "gitlab wiki", "wiki.js",
    ),
    "async_runtime": (
        "tokio", "async-std", "smol", "glommio", "asyncio", "trio", "anyio", "uvloop",
        "gevent", "eventlet", "twisted", "kotlinx.coroutines", "embassy",
    ),
    "data_processing": (
        "apache spark", "spark", "pyspark", "apache flink", "flink", "apache beam", "beam",
        "google dataflow", "cloud dataflow", "dataflow", "spark streaming", "kafka streams",
        "ksqldb", "apache storm", "apache samza", "samza", "materialize", "risingwave",
        "databricks", "amazon emr", "emr", "aws glue", "hadoop", "apache hadoop", "mapreduce",
        "dask", "ray", "bytewax", "arroyo", "azure stream analytics", "kinesis data analytics",
        "azure databricks", "dataproc", "google dataproc",
    ),
    "query_engine": (
        "trino", "presto", "prestodb", "apache drill", "athena", "amazon athena", "dremio",
        "starburst", "bigquery", "spark sql", "impala", "apache impala", "hive", "apache hive",
    ),
    "app_distribution": (
        "testflight", "firebase app distribution", "app center", "visual studio app center",
        "appcenter", "diawi", "hockeyapp", "google play internal testing",
        "play internal testing", "play console internal testing",
    ),
    "api_protocol": (
        "rest", "restful", "rest api", "restful api", "graphql", "grpc", "soap", "json-rpc",
        "jsonrpc", "trpc", "xml-rpc", "odata", "websocket", "websockets", "thrift",
        "apache thrift", "connect rpc", "connectrpc",
    ),
    "orm": (
        "sqlalchemy", "prisma", "typeorm", "sequelize", "drizzle", "drizzle orm", "django orm",
        "hibernate", "gorm", "diesel", "sqlx", "entity framework", "ef core",
        "entity framework core", "active record", "activerecord", "ecto", "peewee",
        "tortoise orm", "mikro-orm", "mikroorm", "knex", "kysely", "jooq", "mybatis",
        "doctrine", "eloquent", "sqlmodel", "sea-orm", "pony orm", "objection.js",
    ),
    "http_client": (
        "requests", "httpx", "aiohttp", "axios", "node-fetch", "got", "superagent",
        "reqwest", "okhttp", "retrofit", "urllib3", "faraday", "httparty", "resty",
        "alamofire", "ureq", "undici",
    ),
    "state_management": (
        "redux", "redux toolkit", "zustand", "mobx", "recoil", "jotai", "pinia", "vuex",
        "xstate", "ngrx", "valtio", "effector", "nanostores", "context api", "react context",
    ),
    "mobile_framework": (
        "react native", "flutter", "swiftui", "uikit", "jetpack compose", "ionic", "capacitor",
        "expo", "xamarin", ".net maui", "maui", "kotlin multiplatform", "nativescript",
        "cordova", "compose multiplatform",
    ),
    "load_testing": (
        "k6", "grafana k6", "locust", "jmeter", "apache jmeter", "gatling", "artillery",
        "vegeta", "wrk", "wrk2", "bombardier", "apache bench", "loader.io", "blazemeter",
    ),
    "service_mesh": (
        "istio", "linkerd", "consul connect", "cilium service mesh", "kuma", "aws app mesh",
        "app mesh", "open service mesh", "traefik mesh",
    ),
    "api_gateway": (
        "kong", "kong gateway", "apigee", "tyk", "aws api gateway", "amazon api gateway",
        "api gateway", "azure api management", "krakend", "zuul", "gloo", "gloo edge",
        "ambassador", "emissary-ingress", "google cloud endpoints", "cloud endpoints",
    ),
    "ml_framework": (
        "pytorch", "tensorflow", "jax", "keras", "scikit-learn", "sklearn", "xgboost",
        "lightgbm", "catboost", "hugging face transformers", "onnx runtime", "mlx", "flax",
        "pytorch lightning", "fastai", "spacy",
    ),
    "llm_provider": (
        "openai", "anthropic", "mistral", "mistral ai", "cohere", "google gemini", "gemini",
        "vertex ai", "azure openai", "bedrock", "amazon bedrock", "groq", "together ai",
        "fireworks ai", "ollama", "llama.cpp", "vllm", "openrouter", "deepseek",
    ),
    "support_desk": (
        "zendesk", "intercom", "freshdesk", "help scout", "helpscout", "front", "hubspot",
        "salesforce service cloud", "kustomer", "gorgias", "crisp", "drift",
    ),
    "uptime_monitoring": (
        "pingdom", "uptimerobot", "uptime robot", "better uptime", "betterstack uptime",
        "statuscake", "checkly", "freshping", "site24x7", "hetrixtools", "uptime kuma",
    ),
    "crm": (
        "salesforce", "salesforce sales cloud", "hubspot", "hubspot crm", "pipedrive", "zoho crm",
        "close crm", "attio", "copper crm", "dynamics 365 sales", "microsoft dynamics crm",
        "freshsales", "affinity crm",
    ),
    "payroll": (
        "gusto", "adp", "rippling", "deel", "remote.com", "paychex", "justworks", "oyster hr",
        "personio", "papaya global", "paylocity", "trinet",
    ),
    "accounting": (
        "quickbooks", "quickbooks online", "xero", "freshbooks", "sage accounting",
        "netsuite", "oracle netsuite", "wave accounting", "zoho books", "datev", "lexoffice",
    ),
    "data_ingestion": (
        "fivetran", "airbyte", "stitch data", "meltano", "hevo", "hevo data", "rudderstack",
        "estuary flow", "aws dms",
    ),
    "bi": (
        "looker", "looker studio", "tableau", "metabase", "power bi", "apache superset",
        "qlik", "qlik sense", "redash", "lightdash", "sigma computing",
        "thoughtspot", "quicksight", "amazon quicksight", "grafana for bi",
    ),
    "experiment_tracking": (
        "mlflow", "weights & biases", "weights and biases", "wandb", "w&b", "neptune.ai",
        "comet ml", "clearml", "tensorboard", "dvc studio",
    ),
    "status_page": (
        "statuspage", "atlassian statuspage", "instatus", "better stack status", "cachet",
        "status.io", "openstatus",
    ),
    "container_runtime": (
        "docker", "docker desktop", "podman", "colima", "rancher desktop", "orbstack",
        "containerd", "cri-o", "finch",
    ),
    "version_manager": (
        "nvm", "asdf", "mise", "rtx", "pyenv", "rbenv", "rvm", "volta", "fnm", "sdkman",
        "goenv", "jenv", "rustup", "nodenv", "chruby", "proto",
    ),
    "type_checker": (
        "mypy", "pyright", "basedpyright", "pyre", "pytype", "tsc", "flow", "sorbet",
        "typescript compiler",
    ),
    "api_client": (
        "postman", "insomnia", "bruno", "hoppscotch", "httpie", "paw", "rapidapi", "curl",
        "thunder client", "rest client",
    ),
    "dependency_bot": (
        "dependabot", "renovate", "renovate bot", "renovatebot", "mend renovate", "depfu",
        "greenkeeper", "pyup", "snyk bot",
    ),
    "security_scanner": (
        "snyk", "sonarqube", "sonarcloud", "codeql", "semgrep", "trivy", "grype", "checkmarx",
        "veracode", "gitguardian", "trufflehog", "bandit", "gosec", "brakeman", "owasp zap",
        "zap", "burp suite", "aqua security", "wiz", "prisma cloud", "anchore",
    ),
    "branch": ("main", "master", "trunk", "develop", "dev", "development", "release", "mainline"),
    "cadence": (
        "daily", "nightly", "weekly", "biweekly", "bi-weekly", "fortnightly", "monthly",
        "quarterly", "yearly", "annually", "hourly", "every week", "every two weeks",
        "every other week", "every day", "every month", "continuously", "on demand", "on merge",
    ),
    "weekday": (
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "mondays", "tuesdays", "wednesdays", "thursdays", "fridays",
    ),
    "company": (
        "acme", "acme corp", "globex", "initech", "umbrella", "hooli", "google", "microsoft",
        "amazon", "meta", "apple", "netflix", "shopify", "stripe inc", "atlassian", "spotify",
    ),
    "city": (
        "lisbon", "porto", "london", "paris", "berlin", "munich", "hamburg", "amsterdam",
        "rotterdam", "brussels", "madrid", "barcelona", "valencia", "rome", "milan", "turin",
        "vienna", "zurich", "geneva", "prague", "warsaw", "krakow", "budapest", "bucharest",
        "athens", "istanbul", "stockholm", "oslo", "copenhagen", "helsinki", "dublin",
        "edinburgh", "manchester", "glasgow", "lyon", "marseille", "nice", "toulouse",
        "new york", "new york city", "nyc", "san francisco", "sf", "los angeles", "seattle",
        "portland", "austin", "boston", "chicago", "denver", "miami", "atlanta", "dallas",
        "houston", "toronto", "montreal", "vancouver", "mexico city", "sao paulo", "são paulo",
        "rio de janeiro", "buenos aires", "santiago", "bogota", "lima", "tokyo", "osaka",
        "kyoto", "seoul", "beijing", "shanghai", "shenzhen", "hong kong", "taipei",
        "singapore", "bangkok", "jakarta", "manila", "hanoi", "ho chi minh city", "kuala lumpur",
        "mumbai", "delhi", "new delhi", "bangalore", "bengaluru", "chennai", "hyderabad",
        "pune", "kolkata", "dubai", "abu dhabi", "tel aviv", "cairo", "lagos", "nairobi",
        "cape town", "johannesburg", "sydney", "melbourne", "brisbane", "perth", "auckland",
        "wellington", "reykjavik", "tallinn", "riga", "vilnius", "kyiv", "kiev", "belgrade",
        "zagreb", "ljubljana", "sofia", "seville", "bilbao", "florence", "naples", "cologne",
        "frankfurt", "stuttgart", "dusseldorf", "leipzig", "dresden", "utrecht", "the hague",
        "antwerp", "ghent", "lausanne", "basel", "bern", "salzburg", "gothenburg", "malmo",
        "aarhus", "bergen", "cork", "bristol", "leeds", "cambridge", "oxford",
    ),
    "country": (
        "portugal", "spain", "france", "germany", "italy", "netherlands", "belgium",
        "switzerland", "austria", "poland", "czechia", "czech republic", "hungary", "romania",
        "greece", "turkey", "sweden", "norway", "denmark", "finland", "ireland",
        "united kingdom", "uk", "england", "scotland", "united states", "usa", "us", "canada",
        "mexico", "brazil", "argentina", "chile", "colombia", "peru", "japan", "south korea",
        "korea", "china", "taiwan", "singapore", "thailand", "vietnam", "indonesia",
        "philippines", "malaysia", "india", "pakistan", "bangladesh", "sri lanka", "uae",
        "israel", "egypt", "nigeria", "kenya", "south africa", "australia", "new zealand",
        "iceland", "estonia", "latvia", "lithuania", "ukraine", "serbia", "croatia", "slovenia",
        "bulgaria",
    ),
}  # fmt: skip
