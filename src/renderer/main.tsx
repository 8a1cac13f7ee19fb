import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from './App';
import { connectApi } from './api';
import { ApiContext } from './context';
import { Localized } from './Localized';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const queryClient = new QueryClient({
  defaultOptions: {
    // The backend is local: a failed call is an answer (forbidden, not found) to show, not
    // a flaky network to retry behind the user's back.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 },
  },
});

createRoot(container).render(
  <StrictMode>
    <ApiContext.Provider value={connectApi()}>
      <QueryClientProvider client={queryClient}>
        <Localized>{() => <App />}</Localized>
      </QueryClientProvider>
    </ApiContext.Provider>
  </StrictMode>,
);
