import type { DeepActions } from "@/components/deep/types";
import { clarifyAction, deepInfoAction, improveAction, outlineAction, rerunAction, startDeepAction } from "./actions";

/** The deep research actions as the research view takes them (passed from the server pages as props). */
export const deepActions: DeepActions = {
  clarify: clarifyAction,
  outline: outlineAction,
  start: startDeepAction,
  rerun: rerunAction,
  improve: improveAction,
  info: deepInfoAction,
};
