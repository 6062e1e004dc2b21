import assert from "node:assert/strict";
import { amountText, formatMoney } from "../../src/relay/moneyFormat";

// One rule for money wherever it is shown (issue 27: the status bar said "Used: $0.00" after $0.0016 was
// spent, while the panel said $0.0016). Small amounts keep enough digits to show two significant ones.

describe("money formatting: one rule, real spending never rounded away", () => {
  const table: [number, string, string, string][] = [
    [0.0016, "USD", "en-US", "$0.0016"],
    [0.00004, "USD", "en-US", "$0.00004"],
    [0.000001234, "USD", "en-US", "$0.0000012"],
    [0.5, "USD", "en-US", "$0.50"],
    [0.1234, "USD", "en-US", "$0.1234"],
    [0, "USD", "en-US", "$0.00"],
    [1.2345, "USD", "en-US", "$1.23"],
    [1234.5, "USD", "en-US", "$1,234.50"],
    [80, "CNY", "zh-CN", "¥80.00"],
    [0.0016, "CNY", "zh-CN", "¥0.0016"],
    [0.0016, "XQQ", "en-US", "XQQ 0.0016"],
  ];
  for (const [amount, currency, locale, expected] of table) {
    it(`${amount} ${currency} (${locale}) reads ${expected}`, () => {
      assert.equal(formatMoney(amount, currency, locale).replace(/\u00a0/g, " "), expected);
    });
  }

  it('the status bar\'s balance and "Used:" follow it: $0.0016 spent reads "$0.0016", raw quota a whole number', () => {
    assert.equal(amountText(0.0016, "USD"), "$0.0016");
    assert.equal(amountText(12.3456, "USD"), "$12.35");
    assert.equal(amountText(1234567.4, "quota"), "1,234,567 quota");
    assert.equal(amountText(12, null), "12");
  });
});
