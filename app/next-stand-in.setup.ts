// vitest's setupFiles: runs before each test file, also where files share a worker (vitest.config.ts)
import { resetRequest } from "./next-stand-in";

resetRequest();
