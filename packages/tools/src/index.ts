// Public surface of @a3s-lab/code-tools: the tool factories, the built-in set and the options of
// what a host configures (search engines). Each tool's arguments are typed from its JSON Schema
// (`Tool<...>` of a factory); its limits are in that schema, not exported twice.
export { BUILTIN_TOOL_NAMES, createBuiltinTools, selectToolsForWorkspace } from './builtin-tools.js';
export type { BuiltinToolName, BuiltinToolsOptions } from './builtin-tools.js';
export { createReadTool } from './read-tool.js';
export { createWriteTool } from './write-tool.js';
export { createEditTool } from './edit-tool.js';
export { createPatchTool } from './patch-tool.js';
export { createLsTool } from './ls-tool.js';
export { createGlobTool } from './glob-tool.js';
export { createGrepTool } from './grep-tool.js';
export { createBashTool } from './bash-tool.js';
export { createGitTool } from './git-tool.js';
export { createBatchTool } from './batch-tool.js';
export { createTaskTool } from './task-tool.js';
export { createParallelTaskTool } from './parallel-task-tool.js';
export { renderTaskResult, taskSummary } from './task-render.js';
export { createGenerateObjectTool } from './generate-object-tool.js';
export { createUpdatePlanTool } from './update-plan-tool.js';
export { createSearchSkillsTool, createSkillTool } from './skill-tool.js';
export { execOutputText } from '@a3s-lab/code-core/util';
export { createWebFetchTool } from './web-fetch-tool.js';
export { createWebSearchTool } from './web-search-tool.js';
export { createWebSearchService, WEB_SEARCH_SERVICE } from './web-search-service.js';
export type { WebSearchService, WebSearchServiceOptions } from './web-search-service.js';
export type { SearchEngine, SearchEngineRequest, SearchHit } from './search-engine.js';
export { createDuckDuckGoEngine } from './duckduckgo-engine.js';
export type { DuckDuckGoEngineOptions } from './duckduckgo-engine.js';
export { createBingRssEngine } from './bing-rss-engine.js';
export type { BingRssEngineOptions } from './bing-rss-engine.js';
export { createBraveEngine } from './brave-engine.js';
export type { BraveEngineOptions } from './brave-engine.js';
