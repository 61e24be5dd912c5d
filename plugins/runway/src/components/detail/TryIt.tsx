/**
 * "Try it": a small chat with a Running deployment through the runway
 * backend (permission runway.chat.send; the backend sends it through the
 * cluster's API server to the deployment's Service), so a developer sees
 * the model answer without a port-forward. The answer appears as it
 * streams; Stop closes the request. The tab is shown only with the
 * permission (DeploymentDetail); here it is disabled, with the reason,
 * while the deployment is not Running.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useApi } from '@backstage/core-plugin-api';
import {
  CHAT_CONTENT_BYTES_MAX,
  CHAT_MAX_TOKENS_DEFAULT,
  parseChatRequest,
} from '@runway-portal/plugin-runway-common';
import { useEffect, useRef, useState } from 'react';
import { type ResourceRef, runwayApiRef } from '../../api/RunwayApi';
import { ErrorAlert } from '../common/ErrorAlert';

export interface TryItProps {
  target: ResourceRef;
  /** The deployment's phase: only a Running deployment answers. */
  phase: string;
  /** The model name it serves, when known (shown, not sent: the backend sets it). */
  model?: string;
}

interface Exchange {
  prompt: string;
  answer: string;
  streaming: boolean;
  stopped?: boolean;
  error?: Error;
}

export function TryIt({ target, phase, model }: TryItProps) {
  const api = useApi(runwayApiRef);
  const [prompt, setPrompt] = useState('');
  const [exchange, setExchange] = useState<Exchange>();
  const controller = useRef<AbortController>();
  // Leaving the tab or the page closes a running answer.
  useEffect(() => () => controller.current?.abort(), []);

  const running = phase === 'Running';
  const request = {
    messages: [{ role: 'user' as const, content: prompt }],
    max_tokens: CHAT_MAX_TOKENS_DEFAULT,
  };
  const problem = prompt.trim()
    ? parseChatRequest(request).issues[0]?.message
    : undefined;
  const streaming = Boolean(exchange?.streaming);

  const send = () => {
    const abort = new AbortController();
    controller.current = abort;
    const asked = prompt;
    setExchange({ prompt: asked, answer: '', streaming: true });
    api
      .chat(target, request, { signal: abort.signal }, text =>
        setExchange(e => e && { ...e, answer: e.answer + text }),
      )
      .then(
        () =>
          setExchange(
            e => e && { ...e, streaming: false, stopped: abort.signal.aborted },
          ),
        error => setExchange(e => e && { ...e, streaming: false, error }),
      );
  };
  const stop = () => controller.current?.abort();

  if (!running)
    return (
      <Alert severity="info">
        Try it is available once the deployment is Running; it is {phase} now.
      </Alert>
    );
  return (
    <Stack spacing={2} sx={{ maxWidth: 900 }}>
      <Typography variant="body2" color="text.secondary">
        Sends an OpenAI chat completion request to{' '}
        {model ? <code>{model}</code> : 'the model'} through the portal (the
        cluster's API server proxies it to the deployment's Service), and shows
        the answer as it streams. Up to {CHAT_CONTENT_BYTES_MAX / 1024} KiB of
        prompt and {CHAT_MAX_TOKENS_DEFAULT} tokens of answer.
      </Typography>
      <TextField
        label="Prompt"
        multiline
        minRows={3}
        maxRows={10}
        value={prompt}
        onChange={e => setPrompt(e.target.value)}
        onKeyDown={e => {
          if (
            e.key === 'Enter' &&
            (e.ctrlKey || e.metaKey) &&
            prompt.trim() &&
            !problem &&
            !streaming
          )
            send();
        }}
        error={Boolean(problem)}
        helperText={problem ?? 'Ctrl+Enter sends'}
        disabled={streaming}
        fullWidth
      />
      <Stack direction="row" spacing={1}>
        <Button
          variant="contained"
          onClick={send}
          disabled={!prompt.trim() || Boolean(problem) || streaming}
        >
          Send
        </Button>
        <Button variant="outlined" onClick={stop} disabled={!streaming}>
          Stop
        </Button>
      </Stack>
      {exchange && (
        <Box>
          <Typography variant="subtitle2" gutterBottom>
            Answer
          </Typography>
          {exchange.streaming && !exchange.answer && (
            <LinearProgress aria-label="waiting for the answer" />
          )}
          {exchange.answer && (
            <Box
              component="pre"
              aria-label="answer"
              aria-busy={exchange.streaming}
              sx={{
                m: 0,
                p: 1.5,
                borderRadius: 1,
                bgcolor: 'action.hover',
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-word',
                fontFamily: 'inherit',
                fontSize: '0.9rem',
              }}
            >
              {exchange.answer}
            </Box>
          )}
          {exchange.stopped && (
            <Typography variant="caption" color="text.secondary">
              Stopped: the request to the model was closed.
            </Typography>
          )}
          {exchange.error && (
            <ErrorAlert
              error={exchange.error}
              title="The model did not answer"
            />
          )}
        </Box>
      )}
    </Stack>
  );
}
