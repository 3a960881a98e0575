/** The watchdog's budget per callback (execution/deployments/manager.ts): instantiation has its own. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { budgetOf, INSTANTIATE_BUDGET_MS } from '../../execution/deployments/manager.ts';
import { CALLBACKS } from '../../execution/algo/watch.ts';

describe('algo callback budgets', () => {
  it('every callback of the algo gets the configured budget; instantiation at least its own', () => {
    for (const callback of CALLBACKS.filter((c) => c !== 'instantiate')) assert.equal(budgetOf(callback, 20), 20, callback);
    assert.equal(budgetOf('instantiate', 20), INSTANTIATE_BUDGET_MS);
    assert.equal(budgetOf('instantiate', 5_000), 5_000, 'a larger configured budget holds for it too');
  });
});
