import { MAX_SEARCH_WORDS, containsIgnoringCase, hasEveryWord, searchWords } from './text-search';

describe('text search', () => {
  it('finds a part of a text in any case, every character literal', () => {
    expect(containsIgnoringCase('Orders.V2 (EU)', 'orders.v')).toBe(true);
    expect(containsIgnoringCase('Orders.V2 (EU)', 's.v2 (eu')).toBe(true);
    expect(containsIgnoringCase('OrdersXv2', 'orders.v')).toBe(false);
    expect(containsIgnoringCase('orders', '.*')).toBe(false);
    expect(containsIgnoringCase('orders', '%')).toBe(false);
  });

  it('splits a query into lower-cased words, without repeats, at most MAX_SEARCH_WORDS', () => {
    expect(searchWords('  Invoice  PAID invoice\tacme ')).toEqual(['invoice', 'paid', 'acme']);
    expect(searchWords('   ')).toEqual([]);
    const many = Array.from({ length: MAX_SEARCH_WORDS + 5 }, (_, i) => `w${i}`).join(' ');
    expect(searchWords(many)).toHaveLength(MAX_SEARCH_WORDS);
  });

  it('matches a text that contains every word, in any order and case', () => {
    const raw = '{"customer":"ACME Corp","status":"paid","total":42}';
    expect(hasEveryWord(raw, searchWords('acme PAID'))).toBe(true);
    expect(hasEveryWord(raw, searchWords('paid acme'))).toBe(true);
    expect(hasEveryWord(raw, searchWords('acme refunded'))).toBe(false);
    expect(hasEveryWord(raw, searchWords('"total":42'))).toBe(true);
  });
});
