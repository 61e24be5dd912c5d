import {
  CHAT_CONTENT_BYTES_MAX,
  CHAT_MAX_TOKENS_DEFAULT,
  CHAT_MAX_TOKENS_MAX,
  CHAT_MESSAGES_MAX,
  chatStreamPart,
  parseChatRequest,
  SseDecoder,
} from './chat';

const user = (content: string) => ({ role: 'user', content });
const paths = (body: unknown) => parseChatRequest(body).issues.map(i => i.path);
const messageOf = (body: unknown, path: string) =>
  parseChatRequest(body).issues.find(i => i.path === path)?.message;

describe('parseChatRequest', () => {
  it('accepts messages and fills in max_tokens', () => {
    expect(parseChatRequest({ messages: [user('hi')] })).toEqual({
      value: { messages: [user('hi')], max_tokens: CHAT_MAX_TOKENS_DEFAULT },
      issues: [],
    });
    expect(
      parseChatRequest({
        messages: [{ role: 'system', content: 'be brief' }, user('hi')],
        max_tokens: CHAT_MAX_TOKENS_MAX,
        temperature: 0,
      }).value,
    ).toEqual({
      messages: [{ role: 'system', content: 'be brief' }, user('hi')],
      max_tokens: CHAT_MAX_TOKENS_MAX,
      temperature: 0,
    });
  });

  it('names messages when there are none, too many, or too much content, with the bound', () => {
    expect(paths({})).toEqual(['messages']);
    expect(paths({ messages: [] })).toEqual(['messages']);
    const many = { messages: Array(CHAT_MESSAGES_MAX + 1).fill(user('x')) };
    expect(paths(many)).toEqual(['messages']);
    expect(messageOf(many, 'messages')).toContain(
      `at most ${CHAT_MESSAGES_MAX}`,
    );
    expect(
      parseChatRequest({ messages: Array(CHAT_MESSAGES_MAX).fill(user('x')) })
        .value,
    ).toBeDefined();
    // The content bound counts bytes, not characters: 'é' is two.
    const big = {
      messages: [user('é'.repeat(CHAT_CONTENT_BYTES_MAX / 2)), user('x')],
    };
    expect(paths(big)).toEqual(['messages']);
    expect(messageOf(big, 'messages')).toContain(
      `${CHAT_CONTENT_BYTES_MAX + 1} bytes`,
    );
    expect(messageOf(big, 'messages')).toContain(
      `at most ${CHAT_CONTENT_BYTES_MAX} bytes`,
    );
    expect(
      parseChatRequest({ messages: [user('x'.repeat(CHAT_CONTENT_BYTES_MAX))] })
        .value,
    ).toBeDefined();
  });

  it("names each message's bad role, content and extra field", () => {
    const body = {
      messages: [
        user('ok'),
        { role: 'tool', content: 'x' },
        { role: 'user', content: 7 },
        { role: 'user', content: 'x', name: 'me' },
        'text',
      ],
    };
    expect(paths(body)).toEqual([
      'messages[1].role',
      'messages[2].content',
      'messages[3].name',
      'messages[4]',
    ]);
    expect(messageOf(body, 'messages[1].role')).toContain(
      'system, user, assistant',
    );
  });

  it('names max_tokens and temperature out of their bounds', () => {
    for (const max_tokens of [0, CHAT_MAX_TOKENS_MAX + 1, 1.5, '10']) {
      const body = { messages: [user('hi')], max_tokens };
      expect(paths(body)).toEqual(['max_tokens']);
      expect(messageOf(body, 'max_tokens')).toContain(
        `1 to ${CHAT_MAX_TOKENS_MAX}`,
      );
    }
    for (const temperature of [-0.1, 2.1, 'hot']) {
      const body = { messages: [user('hi')], temperature };
      expect(paths(body)).toEqual(['temperature']);
      expect(messageOf(body, 'temperature')).toContain('0 to 2');
    }
  });

  it('refuses fields the portal sets itself, and a body that is not an object', () => {
    expect(
      paths({ messages: [user('hi')], model: 'x', stream: false }),
    ).toEqual(['model', 'stream']);
    expect(paths('hello')).toEqual(['']);
    expect(paths([user('hi')])).toEqual(['']);
  });
});

describe('SseDecoder and chatStreamPart', () => {
  it('reads events split anywhere, and what each adds to the answer', () => {
    const decoder = new SseDecoder();
    const chunk = (content: string) =>
      JSON.stringify({
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { content } }],
      });
    const text = `: keep-alive\n\ndata: ${chunk('Hel')}\n\ndata: ${chunk(
      'lo',
    )}\r\n\r\nevent: runway-error\ndata: the answer is longer than 262144 bytes\n\ndata: [DONE]\n\n`;
    const events = [
      ...decoder.push(text.slice(0, 17)),
      ...decoder.push(text.slice(17, 60)),
      ...decoder.push(text.slice(60)),
    ];
    expect(events.map(chatStreamPart)).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'error', message: 'the answer is longer than 262144 bytes' },
      { type: 'done' },
    ]);
  });

  it("turns a model server's error chunk into an error, and ignores chunks without text", () => {
    expect(
      chatStreamPart({ data: JSON.stringify({ error: { message: 'boom' } }) }),
    ).toEqual({
      type: 'error',
      message: 'the model server answered an error: boom',
    });
    expect(
      chatStreamPart({
        data: JSON.stringify({ choices: [{ delta: { role: 'assistant' } }] }),
      }),
    ).toBeUndefined();
    expect(chatStreamPart({ data: 'not json' })).toBeUndefined();
  });
});
