CREATE TABLE "latent_models" (
	"id" text PRIMARY KEY NOT NULL,
	"model" text NOT NULL,
	"dimensions" integer NOT NULL,
	"rank" integer NOT NULL,
	"rows" integer NOT NULL,
	"terms" text[] NOT NULL,
	"idf" "bytea" NOT NULL,
	"projection" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
