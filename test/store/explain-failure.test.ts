import { describe, expect, it } from 'vitest';
import { explainFailure } from '../../src/store/pg-db.js';

describe('explainFailure', () => {
  it.each([
    ['connect ECONNREFUSED 127.0.0.1:5432', 'nothing accepts connections at its address (connect ECONNREFUSED 127.0.0.1:5432)'],
    ['getaddrinfo ENOTFOUND db.internal', 'its host name does not resolve (getaddrinfo ENOTFOUND db.internal)'],
    ['timeout exceeded when trying to connect', 'it did not answer in time (timeout exceeded when trying to connect)'],
    ['Connection terminated unexpectedly', 'the connection to it was lost (Connection terminated unexpectedly)'],
    ['password authentication failed for user "gw"', 'password authentication failed for user "gw"'],
  ])('should say %j as %j', (why, said) => {
    expect(explainFailure(why)).toBe(said);
  });
});
