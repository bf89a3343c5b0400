import { NAMED_FIELD_STYLE, styleProblems, validationSummary, WIRE_NAME_STYLE } from './field-style';

const body = (errors: Record<string, string[]>) => ({
  message: validationSummary(Object.values(errors).map((messages) => messages[0])),
  errors,
});

describe('styleProblems', () => {
  it('accepts one message per field in the style, ending with a full stop', () => {
    expect(
      styleProblems(
        body({
          per_page: ['The per page field must be an integer.'],
          'steps.0.time': ['The time field is required.'],
        }),
        NAMED_FIELD_STYLE,
      ),
    ).toEqual([]);
    expect(
      styleProblems(body({ hide_invalid: ['hide_invalid must be one of true, false.'] }), WIRE_NAME_STYLE),
    ).toEqual([]);
  });

  it('names each way a body breaks the style', () => {
    expect(
      styleProblems(
        {
          message: 'per_page must not be less than 1 (and 1 more error)',
          errors: { per_page: ['per_page must not be less than 1', 'per_page must be an integer number'] },
        },
        NAMED_FIELD_STYLE,
      ),
    ).toEqual([
      'per_page: not exactly one message: ["per_page must not be less than 1","per_page must be an integer number"]',
      'per_page: does not begin with "The per page field ": "per_page must not be less than 1"',
      'per_page: no full stop: "per_page must not be less than 1"',
      'message "per_page must not be less than 1 (and 1 more error)" is not the summary "per_page must not be less than 1"',
    ]);
    expect(styleProblems(body({ category: ['The category field is bad.'] }), WIRE_NAME_STYLE)).toEqual([
      'category: does not begin with "category ": "The category field is bad."',
    ]);
    expect(styleProblems({ message: 'x', error: 'not_found' }, WIRE_NAME_STYLE)).toHaveLength(1);
    expect(
      styleProblems({ message: 'The given data was invalid.', errors: {} }, WIRE_NAME_STYLE),
    ).toHaveLength(1);
  });
});
