/** Labels (docs/labels.md): keep, pointer or drop for each block an epoch considers. Pure. */
export * from './label-types.js';
export * from './main-input.js';
export * from './secret-value.js';
export * from './find-secrets.js';
export * from './redact-text.js';
export * from './describe-call.js';
export * from './rule-superseded.js';
export * from './rule-duplicate.js';
export * from './rule-retried.js';
export * from './label-blocks.js';
export * from './ledger.js';
export * from './freeze-labelled.js';
export * from './current-task.js';
export * from './classifier-request.js';
export * from './classifier-response.js';
