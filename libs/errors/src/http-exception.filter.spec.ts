import { NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { AppError } from './app-error';
import { ErrorCode } from './error-code';
import { answerError, toAppError } from './http-exception.filter';
import type { Request, Response } from 'express';

describe('toAppError', () => {
  it('keeps an AppError as is', () => {
    const error = AppError.validation({ full_code: ['taken'] }, 'already_claimed');
    expect(toAppError(error)).toBe(error);
    expect(error.toBody()).toEqual({
      message: 'taken',
      errors: { full_code: ['taken'] },
      reason: 'already_claimed',
    });
  });

  it('maps Nest exceptions to stable codes', () => {
    expect(toAppError(new NotFoundException()).toBody()).toEqual({
      message: 'Not found.',
      error: 'not_found',
    });
    expect(toAppError(new PayloadTooLargeException()).code).toBe(ErrorCode.PayloadTooLarge);
  });

  it('maps body-parser failures to client errors', () => {
    expect(toAppError(Object.assign(new SyntaxError('x'), { type: 'entity.parse.failed' })).status).toBe(400);
    expect(toAppError(Object.assign(new Error('x'), { type: 'entity.too.large' })).status).toBe(413);
  });

  it('turns anything else into a 500 without details', () => {
    expect(toAppError(new Error('db password is hunter2')).toBody()).toEqual({
      message: 'Internal server error.',
      error: 'internal_error',
    });
  });

  it('gives 429 a Retry-After header', () => {
    expect(AppError.tooManyRequests(12.2).headers).toEqual({ 'Retry-After': '13' });
  });
});

describe('toAppError for the client errors of body-parser and the router', () => {
  const httpError = (status: number, fields: Record<string, unknown> = {}) =>
    Object.assign(new Error('raw message'), { status, statusCode: status, expose: true, ...fields });

  it('honours the 4xx status they carry, with a message a client can act on', () => {
    const depth = toAppError(httpError(400, { type: 'querystring.parse.rangeError' }));
    expect(depth.toBody()).toEqual({
      message: 'The parameters are nested too deeply.',
      error: 'bad_request',
    });
    expect(toAppError(httpError(400, { code: 'Z_DATA_ERROR' })).toBody()).toEqual({
      message: 'The request body does not match its Content-Encoding.',
      error: 'bad_request',
    });
    expect(toAppError(httpError(415, { type: 'encoding.unsupported' })).status).toBe(415);
    expect(toAppError(httpError(404)).toBody()).toEqual({ message: 'Not found.', error: 'not_found' });
    expect(toAppError(httpError(418)).status).toBe(400);
  });

  it('never trusts a 5xx or an unexposed status', () => {
    expect(toAppError(httpError(503)).status).toBe(500);
    expect(toAppError(Object.assign(new Error('x'), { status: 400 })).status).toBe(500);
  });
});

describe('answerError', () => {
  const fakeResponse = () => {
    const sent: { status?: number; headers?: Record<string, string>; body?: unknown } = {};
    const response = {
      headersSent: false,
      status(code: number) {
        sent.status = code;
        return response;
      },
      set(headers: Record<string, string>) {
        sent.headers = headers;
        return response;
      },
      json(body: unknown) {
        sent.body = body;
        return response;
      },
    };
    return { response: response as unknown as Response & { err?: unknown }, sent };
  };
  const request = { method: 'GET', path: '/api/login' } as Request;

  it('hands a 500 to the request log line (res.err) and sends no detail', () => {
    const { response, sent } = fakeResponse();
    const boom = new Error('db password is hunter2');
    answerError(boom, request, response);
    expect(response.err).toBe(boom);
    expect(sent).toMatchObject({
      status: 500,
      body: { message: 'Internal server error.', error: 'internal_error' },
    });
  });

  it('hands an unreachable database to the log line as a one-line cause, and answers 503 with Retry-After', () => {
    const { response, sent } = fakeResponse();
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    answerError(refused, request, response);
    expect(sent).toMatchObject({
      status: 503,
      headers: { 'Retry-After': '5' },
      body: { message: expect.any(String), error: 'service_unavailable' },
    });
    const logged = response.err as Error;
    expect(logged.message).toBe('connect ECONNREFUSED 127.0.0.1:5432');
    expect(logged.stack).toBe('Error: connect ECONNREFUSED 127.0.0.1:5432');
  });

  it('answers 405 with Allow for a known path asked with another method, and leaves 4xx out of the log', () => {
    const { response, sent } = fakeResponse();
    answerError(new NotFoundException('Cannot GET /api/login'), request, response, () => ['POST']);
    expect(sent).toEqual({
      status: 405,
      headers: { Allow: 'POST' },
      body: { message: 'Method not allowed.', error: 'method_not_allowed' },
    });
    expect(response.err).toBeUndefined();
  });

  it('keeps 404 when the route takes the method (the resource is what is missing)', () => {
    const { response, sent } = fakeResponse();
    answerError(new NotFoundException(), request, response, () => ['GET', 'HEAD']);
    expect(sent.status).toBe(404);
  });
});
