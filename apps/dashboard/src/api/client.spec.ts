import { fakeApi } from '../testing/fake-api';
import { ApiError } from './api-error';
import { api, setBearerToken, setUnauthorizedHandler } from './client';

afterEach(() => {
  setUnauthorizedHandler(null);
  setBearerToken(null);
});

describe('api client', () => {
  it('turns an error answer into an ApiError with status, code, message and field details', async () => {
    fakeApi({
      'POST /v1/projects': () => [400, { success: false, code: 'invalid_request', message: 'Invalid body', details: [{ path: 'subdomain', message: 'is reserved' }] }],
    });
    const failure = await api('POST /v1/projects', { body: { name: 'x', subdomain: 'admin' } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 400, code: 'invalid_request', message: 'Invalid body' });
    expect((failure as ApiError).fieldMessage('subdomain')).toBe('is reserved');
  });

  it('reports a lost session (401) so the app can send the user to /login, but not a failed sign-in', async () => {
    const unauthorized = jest.fn();
    setUnauthorizedHandler(unauthorized);
    fakeApi({
      'GET /v1/projects': () => [401, { success: false, code: 'unauthorized', message: 'Authentication required' }],
      'POST /v1/auth/login': () => [401, { success: false, code: 'invalid_credentials', message: 'Wrong email or password' }],
    });
    await expect(api('POST /v1/auth/login', { body: { email: 'a@b.c', password: 'x' } })).rejects.toMatchObject({ status: 401 });
    expect(unauthorized).not.toHaveBeenCalled();
    await expect(api('GET /v1/projects')).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    expect(unauthorized).toHaveBeenCalledTimes(1);
  });

  it('encodes path parameters, sends the bearer token when set, and says when the server cannot be reached', async () => {
    const { fetchMock } = fakeApi({ 'GET /v1/subdomains/a%2Fb': () => [200, { available: false, reason: 'invalid', message: 'x' }] });
    setBearerToken('tok');
    expect(await api('GET /v1/subdomains/{name}', { params: { name: 'a/b' } })).toMatchObject({ reason: 'invalid' });
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({ credentials: 'same-origin', headers: { authorization: 'Bearer tok' } });
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
    await expect(api('GET /v1/projects')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });
});
