import http from "node:http";
import type { AddressInfo } from "node:net";
import { generateText } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getEnv, resetEnvForTests } from "@/lib/env";
import { describeModelMode, getChatModel } from "./providers";

function envWith(vars: Record<string, string | undefined>) {
  for (const key of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "LECTERN_CHAT_MODEL"]) vi.stubEnv(key, vars[key] ?? "");
  resetEnvForTests();
  return getEnv();
}

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvForTests();
});

describe("getChatModel / describeModelMode", () => {
  it("is offline without a key or a base URL", () => {
    const env = envWith({});
    expect(getChatModel(env)).toBeNull();
    expect(describeModelMode(env)).toEqual({ mode: "offline" });
  });

  it("describes the model and server, never the key", () => {
    const local = envWith({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1", LECTERN_CHAT_MODEL: "llama3.1" });
    expect(describeModelMode(local)).toEqual({ mode: "llm", model: "llama3.1", baseURL: "http://127.0.0.1:11434/v1" });
    const hosted = envWith({ OPENAI_API_KEY: "sk-secret" });
    expect(describeModelMode(hosted)).toEqual({ mode: "llm", model: "gpt-4o-mini" });
    expect(JSON.stringify(describeModelMode(hosted))).not.toContain("sk-secret");
  });

  it("makes a chat-completions model (not the Responses API) for the configured model id", () => {
    const model = getChatModel(envWith({ OPENAI_API_KEY: "sk-test", LECTERN_CHAT_MODEL: "gpt-4.1-mini" }));
    expect(model).not.toBeNull();
    expect(typeof model === "object" && model?.modelId).toBe("gpt-4.1-mini");
    expect(typeof model === "object" && model?.provider).toBe("openai.chat");
  });

  it("talks to an OpenAI-compatible server's /v1/chat/completions", async () => {
    const seen: Array<{ url?: string; auth?: string; model?: string }> = [];
    const server = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => {
        raw += c;
      });
      req.on("end", () => {
        const body = JSON.parse(raw);
        seen.push({ url: req.url, auth: req.headers.authorization, model: body.model });
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify({
            id: "chatcmpl-1",
            object: "chat.completion",
            created: 1,
            model: body.model,
            choices: [{ index: 0, message: { role: "assistant", content: "pong" }, finish_reason: "stop" }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const model = getChatModel(
        envWith({ OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, LECTERN_CHAT_MODEL: "qwen" }),
      );
      if (!model) throw new Error("expected a model");
      const { text } = await generateText({ model, prompt: "ping" });
      expect(text).toBe("pong");
      expect(seen).toEqual([{ url: "/v1/chat/completions", auth: "Bearer not-needed", model: "qwen" }]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
